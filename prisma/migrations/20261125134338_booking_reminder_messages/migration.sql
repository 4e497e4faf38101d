-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "reminder_booking_id" TEXT;
