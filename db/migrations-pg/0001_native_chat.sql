CREATE TABLE "chat_bots" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"twitch_user_id" text NOT NULL,
	"login" text NOT NULL,
	"display_name" text NOT NULL,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text NOT NULL,
	"scopes" jsonb DEFAULT '[]' NOT NULL,
	"expires_at" bigint NOT NULL,
	"needs_reauth" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'off' NOT NULL,
	"state_since" bigint,
	"reason" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "command_settings" ADD COLUMN "aliases" jsonb;--> statement-breakpoint
ALTER TABLE "chat_bots" ADD CONSTRAINT "chat_bots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_settings" ADD CONSTRAINT "chat_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;