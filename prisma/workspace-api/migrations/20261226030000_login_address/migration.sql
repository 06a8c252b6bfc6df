-- Addresses a user has signed in from (IPv4, or the /64 of IPv6). Only wrong passwords from
-- these count toward the account lock; elsewhere they are throttled, never locking the account.

CREATE TABLE "login_address" (
    "user_id" UUID NOT NULL,
    "address" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "login_address_pkey" PRIMARY KEY ("user_id","address")
);
ALTER TABLE "login_address" ADD CONSTRAINT "login_address_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
