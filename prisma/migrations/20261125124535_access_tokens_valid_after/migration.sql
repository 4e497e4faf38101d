-- AlterTable
ALTER TABLE "users" ADD COLUMN     "tokens_valid_after" TIMESTAMPTZ(3);
