/** The member each subschema carries in the generated validators: its JSON pointer in the published document. */
export const LOCATION = "x-cgp-at";
