-- AlterTable
ALTER TABLE "audit_log" ADD COLUMN     "tool" TEXT;
