CREATE TABLE "obs_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"url" text NOT NULL,
	"via" text NOT NULL,
	"password_sealed" text,
	"state" text DEFAULT 'off' NOT NULL,
	"state_since" bigint,
	"reason" text,
	"obs_version" text,
	"scenes" jsonb NOT NULL,
	"sources" jsonb NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "obs_settings" ADD CONSTRAINT "obs_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;