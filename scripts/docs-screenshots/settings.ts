/** Where `npm run docs:screenshots` runs its demo console, and what it sends the browser. */

/** The screenshots' own database (git ignores data/), seeded as the demo seeds data/console.db. */
export const SCREENSHOTS_DATABASE_FILE = "data/docs-screenshots.db";
export const SCREENSHOTS_DATABASE_URL = `file:./${SCREENSHOTS_DATABASE_FILE}`;

/** The demo console's port: SCREENSHOTS_PORT, else 3190 (beside the e2e suite's 3100 and 3310s). */
export const SCREENSHOTS_PORT = Number(process.env.SCREENSHOTS_PORT || 3190);
export const SCREENSHOTS_URL = `http://127.0.0.1:${SCREENSHOTS_PORT}`;

/** Where the pictures go: the docs show them from there. */
export const IMAGES_DIR = "docs/images";

/**
 * Modest sizes at one device pixel per CSS pixel: a picture in the docs is read at about this
 * size, and PNGs of it stay well under the 200 KB tests/docs allows.
 */
export const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 } as const;
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true } as const;
