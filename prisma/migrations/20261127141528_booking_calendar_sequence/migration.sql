-- The calendar feed's SEQUENCE per booking (RFC 5545 §3.8.7.4), raised whenever its start or end moves.

-- AlterTable
ALTER TABLE "bookings" ADD COLUMN     "sequence" INTEGER NOT NULL DEFAULT 0;
