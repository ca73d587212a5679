ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'succeeded' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "kind" text DEFAULT 'refund' NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_pending_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" in ('pending', 'succeeded'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_kind_known" CHECK ("refunds"."kind" in ('refund', 'cancel'));--> statement-breakpoint
-- A reservation never settled before this column existed is exactly a pending refund; a
-- cancellation's refund is known by the note cancelOrder gave it.
UPDATE "refunds" SET "status" = 'pending' WHERE "provider_refund_id" IS NULL;--> statement-breakpoint
UPDATE "refunds" SET "kind" = 'cancel' WHERE "note" = 'Cancelled by the photographer';
