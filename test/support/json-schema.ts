// A JSON Schema (draft 2020-12) validator as a receiver would use one: formats (date-time, uuid) checked.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function jsonSchemaValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}
