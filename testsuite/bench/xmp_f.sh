#!/usr/bin/env bash
# Benchmark of the XMP Fortran applications (Laplace, Himeno): see xmp_apps.sh.
exec "$(dirname "$0")/xmp_apps.sh" f "$@"
