#!/usr/bin/perl
# test/snapshot.pl CACHE GITDIR - the work tree below the current folder and
# GITDIR's files, as test/run's snapshot() compares them before and after a
# run: every file with its mode and SHA-1, every link with its target,
# sorted by name; then GITDIR's files by name (not the objects, reflogs,
# hooks and what git rewrites on every run), then temporary objects and
# locks.  A file's hash is taken from CACHE when its path, size, mtime and
# mode are those it had when hashed; a file is cached only once its mtime
# is more than two seconds old, so a write in the same clock tick as the
# hash cannot hide behind an unchanged mtime (git's racy-file rule).
use strict;
use warnings;
use Cwd qw(getcwd);
use Digest::SHA;
use File::Find;
use Time::HiRes qw(lstat time);

my ($cache, $gd) = @ARGV;
my $cwd = getcwd();
my %hash;
if (open my $in, '<', $cache) {
	while (<$in>) { chomp; my ($k, $h) = split /\t/; $hash{$k} = $h; }
	close $in;
}
my $now = time;
my (@tree, %fresh);
find({ no_chdir => 1, wanted => sub {
	my $p = $File::Find::name;
	if ($p eq './.git') { $File::Find::prune = 1; return; }
	my @st = lstat($p) or return;
	if (-l _) { push @tree, "$p -> " . readlink($p); return; }
	return unless -f _;
	my $key = join ' ', "$cwd/$p", @st[7, 9, 2];
	my $h = $hash{$key};
	unless (defined $h) {
		$h = Digest::SHA->new(1)->addfile($p)->hexdigest;
		$fresh{$key} = $h if $now - $st[9] > 2;
	}
	push @tree, sprintf '%s %o %s', $p, $st[2], $h;
} }, '.');
print "$_\n" for sort @tree;

my @git;
find({ no_chdir => 1, wanted => sub {
	my $p = $File::Find::name;
	if ($p eq "$gd/objects") { $File::Find::prune = 1; return; }
	return unless -f $p;
	return if $p =~ m{/logs/|/hooks/|/(?:COMMIT_EDITMSG|ORIG_HEAD|description)$|/info/exclude$};
	push @git, $p;
} }, $gd);
find({ no_chdir => 1, wanted => sub {
	my $n = $_; $n =~ s{.*/}{};
	push @git, $_ if $n =~ /^tmp_|\.lock$/;
} }, "$gd/objects") if -d "$gd/objects";
print "$_\n" for sort @git;

if (%fresh) {
	open my $out, '>>', $cache or die "snapshot: $cache: $!\n";
	print $out "$_\t$fresh{$_}\n" for sort keys %fresh;
	close $out or die "snapshot: $cache: $!\n";
}
