CREATE TABLE "shop_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_guid" uuid NOT NULL,
	"shop_domain" text NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "shop_connection_code" text;--> statement-breakpoint
ALTER TABLE "shop_connections" ADD CONSTRAINT "shop_connections_user_guid_users_guid_fk" FOREIGN KEY ("user_guid") REFERENCES "public"."users"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_connections_shop_key" ON "shop_connections" USING btree ("shop_domain");--> statement-breakpoint
CREATE UNIQUE INDEX "users_shop_connection_code_key" ON "users" USING btree ("shop_connection_code");