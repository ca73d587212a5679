/** The database schema, one file per area; drizzle-kit and the app read it from here. */
export * from './schema/accounts.ts';
export * from './schema/catalogue.ts';
export * from './schema/orders.ts';
export * from './schema/platform.ts';
export * from './schema/line-items.ts';
export * from './schema/checkout.ts';
export * from './schema/admin.ts';
export * from './schema/albums.ts';
export * from './schema/webhooks.ts';
export * from './schema/drop-ship.ts';
