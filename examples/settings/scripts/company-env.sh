# Sourced by login shells in every session (file mapping of the group All Users).
export HTTPS_PROXY=http://proxy.example.com:3128
export NO_PROXY=localhost,127.0.0.1,.example.com
export LANG=en_US.UTF-8
