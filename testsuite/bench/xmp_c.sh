#!/usr/bin/env bash
# Benchmark of the XMP C applications (Laplace, Himeno): see xmp_apps.sh.
exec "$(dirname "$0")/xmp_apps.sh" c "$@"
