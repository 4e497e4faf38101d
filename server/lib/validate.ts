import type { z } from 'zod';
import { Errors, type FieldError } from './errors';

/** `events[0].url` style paths, as the contract's `errors[].path` shows them. */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

export function toFieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = formatPath(issue.path);
    return { path: prefix ? (path ? `${prefix}.${path}` : prefix) : path, message: issue.message };
  });
}

/** Parses input with a zod schema or throws 422 validation_failed listing every problem. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw Errors.validation(toFieldErrors(result.error, prefix));
  return result.data;
}
