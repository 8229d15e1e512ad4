# `make install PREFIX=DIR [PROFILE=release|debug]`: see install.sh and docs/install.md.
PREFIX ?= /usr/local
PROFILE ?= release

.PHONY: install
install:
	./install.sh --prefix "$(PREFIX)" --profile "$(PROFILE)"
