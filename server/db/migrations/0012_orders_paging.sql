DROP INDEX "lab_orders_user_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "catalogues_one_active_key" ON "catalogues" USING btree ("active") WHERE "catalogues"."active";--> statement-breakpoint
CREATE INDEX "lab_orders_shown_idx" ON "lab_orders" USING btree (coalesce("paid_at", "updated_at"),"id");--> statement-breakpoint
CREATE INDEX "lab_orders_user_shown_idx" ON "lab_orders" USING btree ("user_guid",coalesce("paid_at", "updated_at"),"id");