-- Each session's TLS pin (SECURITY.md, issue 37): the SHA-256 of the certificate the platform
-- made for its container, and of the one the proxy accepts on every connection to it. Sessions
-- started before have neither: the proxy refuses them until they are started again.

ALTER TABLE "kasm" ADD COLUMN "tls_issued_sha256" CHAR(64),
ADD COLUMN "tls_pin_sha256" CHAR(64);
