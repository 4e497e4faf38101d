// Every answer has a size bound, whatever it lists (docs/decisions.md, "Bounded answers"): a list
// takes its items in order while their JSON fits the answer's budget, and says where it stopped
// (`truncated: true`, or a `next_cursor` that goes on from there). REST answers at most
// MAX_ANSWER_BYTES; an assistant's tool call asks for less (server/mcp/tool.ts).

/** The most JSON one answer holds: 1 MiB. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Bytes of `value` as JSON (UTF-8). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

/** What is left of an answer's budget as its lists are filled, item by item, in order. */
export class AnswerBudget {
  private left: number;
  /** An item did not fit: what follows it is left out too. */
  exhausted = false;

  constructor(bytes: number) {
    this.left = bytes;
  }

  /** Spends the bytes of `value` (as a list item: its JSON and a comma) when they fit; else exhausts. */
  take(value: unknown): boolean {
    return this.spend(jsonBytes(value) + 1);
  }

  /** Spends `bytes` when they fit; else nothing more fits (the answer is cut here). */
  spend(bytes: number): boolean {
    if (this.exhausted || bytes > this.left) {
      this.exhausted = true;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}
