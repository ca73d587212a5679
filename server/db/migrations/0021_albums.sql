CREATE TABLE "album_photos" (
	"album_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"photograph_id" bigint NOT NULL,
	CONSTRAINT "album_photos_album_id_position_pk" PRIMARY KEY("album_id","position")
);
--> statement-breakpoint
CREATE TABLE "albums" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"description" text NOT NULL,
	"outer_fabric_name" text,
	"inner_fabric_name" text,
	"font" text,
	"spread_quantity" integer NOT NULL,
	"stamping" text,
	"upper_text_value" text,
	"upper_text_font_size" integer,
	"lower_text_value" text,
	"lower_text_font_size" integer,
	"text_font" text,
	"text_color" text,
	"total_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "albums_guid_unique" UNIQUE("guid"),
	CONSTRAINT "albums_total_not_negative" CHECK ("albums"."total_cents" >= 0),
	CONSTRAINT "albums_spreads_positive" CHECK ("albums"."spread_quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "album_photos" ADD CONSTRAINT "album_photos_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_photos" ADD CONSTRAINT "album_photos_photograph_id_photographs_id_fk" FOREIGN KEY ("photograph_id") REFERENCES "public"."photographs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "album_photos_photo_idx" ON "album_photos" USING btree ("photograph_id");--> statement-breakpoint
CREATE INDEX "albums_order_idx" ON "albums" USING btree ("lab_order_id");