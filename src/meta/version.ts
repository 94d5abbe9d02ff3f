/** cgp-conform's own version (kept equal to package.json by a test). */
export const VERSION = "0.1.0";
