# t-binary.sh - the binary itself: static, versioned, installable, and
# working in an empty chroot.

elfcheck() { "$here/elfcheck" "$@"; }

t_binary_static() {
	[ -x "$here/elfcheck" ] || { bad "no test/elfcheck (make test builds it)"; return; }
	local elf=${SERIES_ELF:-$SERIES} kind
	kind=$(elfcheck "$elf" | tail -n 1)
	if [ -n "${SERIES_DYNAMIC_OK:-}" ]; then
		echo "SKIP t_binary_static: $SERIES is a sanitizer build ($kind)"; return
	fi
	eq "no PT_INTERP, no DT_NEEDED" "$(elfcheck "$elf")" "static"
	# and the checker can tell: a dynamic binary is caught
	has "checker sees a dynamic binary" "$(elfcheck "$(command -v git)")" "dynamic"
}

t_binary_version() {
	run --version
	eq "exit" "$rc" 0
	has "names itself" "$out" "series 0."
	[ -n "${SERIES_DYNAMIC_OK:-}" ] || has "says static" "$out" ", static)"
	run -h
	has "usage lists cc" "$out" "series cc"
}

t_binary_install() {
	local d=$scratch/inst
	make -s -C "$here/.." install PREFIX=/opt/series DESTDIR="$d" >/dev/null 2>&1
	[ -x "$d/opt/series/bin/series" ] && ok || bad "make install put nothing in $d/opt/series/bin"
	eq "installed binary runs" "$("$d/opt/series/bin/series" --version | cut -d' ' -f1)" "series"
	eq "nothing else installed" "$(cd "$d" && find . -type f)" "./opt/series/bin/series"
}

# Root only: a root folder holding just the binary, a MAINTAINERS and
# patches; series cc gives there what it gives outside.
t_binary_empty_chroot() {
	if [ "$(id -u)" != 0 ]; then echo "SKIP t_binary_empty_chroot: needs root"; return; fi
	if [ -n "${SERIES_CROSS:-}" ]; then echo "SKIP t_binary_empty_chroot: a $SERIES_CROSS binary needs qemu"; return; fi
	if [ "$(elfcheck "$SERIES" | tail -n 1)" != static ]; then
		echo "SKIP t_binary_empty_chroot: $SERIES is not static"; return
	fi
	cctree chroot-src
	mkdir -p out
	mkpatch out/0001-a.patch "Use bpf." drivers/i2c/busses/i2c-designware-core.h
	mkpatch out/0002-b.patch "" include/dots.h
	printf 'Subject: [PATCH 0/2] x\n\nCover.\n' > out/0000-cover-letter.patch
	local root=$scratch/root
	rm -rf "$root"; mkdir -p "$root/p"
	cp "$SERIES" "$root/series"
	cp MAINTAINERS .mailmap "$root/"
	cp out/*.patch "$root/p/"
	eq "the root holds only these" "$(cd "$root" && find . -type f | sort | tr '\n' ' ')" \
		"./.mailmap ./MAINTAINERS ./p/0000-cover-letter.patch ./p/0001-a.patch ./p/0002-b.patch ./series "
	local p inside outside
	for p in 0001-a.patch 0002-b.patch 0000-cover-letter.patch; do
		outside=$("$SERIES" cc --maintainers "$root/MAINTAINERS" "$root/p/$p")
		inside=$(chroot "$root" /series cc "/p/$p" 2>&1)
		eq "chroot: $p" "$inside" "$outside"
	done
	[ -n "$inside" ] && ok || bad "empty output"
	inside=$(chroot "$root" /series commit -m x 2>&1); rc=$?
	eq "commit without git: a clear failure" "$rc" 3
	has "says git is missing" "$inside" "could not run git"
}
