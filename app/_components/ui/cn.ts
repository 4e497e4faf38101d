/**
 * Joins class names and drops the falsy ones. Kit components put the caller's `className` last
 * and keep their own utilities to ones a caller has no reason to override (colors, padding),
 * so callers add layout (margins, widths) without a class-merging library.
 */
export type ClassValue = string | false | null | undefined;

export function cn(...classes: ClassValue[]): string {
  return classes.filter(Boolean).join(' ');
}
