/** The HTML report; its parts live in html/. This path stays for the modules and tests that import it. */
export * from "./html/index.ts";
