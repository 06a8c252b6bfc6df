# Administrators' variant of company-env.sh: no proxy, so that internal hosts are reached directly.
export NO_PROXY='*'
export LANG=en_US.UTF-8
