/**
 * Cuts a byte stream into messages, message by message, to keep, drop or replace each: the RFB
 * stream inside a session's WebSocket frames, read where a clipboard policy must hold
 * (clipboard-guard.ts). A subclass is asked about each head it wanted (`next`) and answers
 * what to send of it, how many bytes after it to pass unread or drop, and how many it wants next.
 */

export interface Step {
  /** What goes out for the head read: itself, a replacement, or nothing (null). */
  out: Buffer | null;
  /** Bytes after it that go out unread. */
  keep?: number;
  /** Bytes after it that are dropped. */
  drop?: number;
  /** The size of the next head to read; 0: nothing more is read (everything passes). */
  need: number;
}

/** The stream cannot be followed: the guard closes it rather than let anything past unread. */
export class UnfollowableStreamError extends Error {}

export abstract class MessageCutter {
  private held: Buffer[] = [];
  private heldLength = 0;
  private need = 0;
  private keepLeft = 0;
  private dropLeft = 0;
  /** Whether the stream is read no further: everything passes. */
  passing = false;

  constructor(firstNeed: number) {
    this.need = firstNeed;
  }

  /** What is decided once `need` bytes of the head are read. */
  protected abstract next(head: Buffer): Step;

  /**
   * The bytes of one frame's payload that go out, and whether they differ from what came in (a
   * head left unfinished at either end counts as a change: it goes out with another frame).
   */
  push(payload: Buffer): { out: Buffer[]; changed: boolean } {
    const out: Buffer[] = [];
    let changed = this.heldLength > 0;
    let at = 0;
    while (at < payload.length) {
      if (this.passing) {
        out.push(payload.subarray(at));
        break;
      }
      const left = payload.length - at;
      if (this.keepLeft > 0) {
        const take = Math.min(this.keepLeft, left);
        out.push(payload.subarray(at, at + take));
        this.keepLeft -= take;
        at += take;
        continue;
      }
      if (this.dropLeft > 0) {
        const take = Math.min(this.dropLeft, left);
        this.dropLeft -= take;
        at += take;
        changed = true;
        continue;
      }
      const take = Math.min(this.need - this.heldLength, left);
      this.held.push(payload.subarray(at, at + take));
      this.heldLength += take;
      at += take;
      if (this.heldLength < this.need) break;
      const head = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
      this.held = [];
      this.heldLength = 0;
      const step = this.next(head);
      if (step.out !== head) changed = true;
      if (step.out && step.out.length > 0) out.push(step.out);
      this.keepLeft = step.keep ?? 0;
      this.dropLeft = step.drop ?? 0;
      this.need = step.need;
      if (step.need === 0) this.passing = true;
    }
    if (this.heldLength > 0) changed = true;
    return { out, changed };
  }
}
