import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import reportSchema from "../../schema/report.schema.json" with { type: "json" };

/** The one ajv instance: draft 2020-12, strict about the schemas themselves. */
const ajv = new Ajv2020({ allErrors: true, strict: true });

/** Validates a `--json` run report (schema/report.schema.json). */
export const validateReport: ValidateFunction = ajv.compile(reportSchema);
