#!/usr/bin/env bash
# Runs at the start of every Terminal session (file mapping of kasmweb/terminal:1.16.0).
set -euo pipefail
mkdir -p "$HOME/projects"
echo "Session started at $(date -u +%FT%TZ)" >> "$HOME/.session-log"
