// A list's cursors name the list they page (`Type.field`) beside the offset, so a cursor taken from
// one list is refused by another instead of silently reading that position there. Pothos's own
// offset cursors (what REST's limit/offset become) name no list and are read by every list.
import { cursorToOffset } from '@pothos/plugin-relay';

export interface CursorPosition {
  /** the list the cursor was given by; undefined for an untagged offset cursor */
  list?: string;
  offset: number;
}

const LIST_CURSOR = /^([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*):(\d{1,15})$/;

export const listCursor = (list: string, offset: number): string =>
  Buffer.from(`${list}:${offset}`).toString('base64');

/** The position a cursor names, or undefined when it is not one of ours. */
export function cursorPosition(cursor: string): CursorPosition | undefined {
  const tagged = LIST_CURSOR.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (tagged) return { list: tagged[1], offset: Number(tagged[2]) };
  try {
    const offset = cursorToOffset(cursor);
    return Number.isSafeInteger(offset) && offset >= 0 ? { offset } : undefined;
  } catch {
    return undefined;
  }
}
