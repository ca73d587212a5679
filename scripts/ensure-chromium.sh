#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium at /usr/bin/chromium, never a downloaded browser.
# Installs it with apt when missing (as root, or through sudo).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Chromium is missing: installing Debian's chromium package with apt."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
