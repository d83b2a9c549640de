// The bytes of the MongoDB wire protocol this test server needs: OP_MSG both ways (with payload
// type 1 document sequences, which the driver uses for insert/update/delete batches), and
// OP_QUERY in / OP_REPLY out, which the driver still uses for the very first hello of a connection
// (before the handshake it cannot know the server speaks OP_MSG).
// Spec: https://github.com/mongodb/specifications/blob/master/source/message/OP_MSG.md
import { BSON, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const HEADER_BYTES = 16;
const CHECKSUM_PRESENT = 1 << 0;
const MORE_TO_COME = 1 << 1;

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface Request {
  header: Header;
  /** the command with every document sequence folded in under its identifier */
  command: Document;
  /** the client expects no reply (OP_MSG moreToCome, e.g. unacknowledged writes) */
  noReply: boolean;
}

/** Splits complete messages off the front of a socket's buffered bytes. */
export function takeMessages(buffered: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (buffered.length - offset >= 4) {
    const length = buffered.readInt32LE(offset);
    if (buffered.length - offset < length) break;
    messages.push(buffered.subarray(offset, offset + length));
    offset += length;
  }
  return { messages, rest: buffered.subarray(offset) };
}

export function parseRequest(message: Buffer): Request {
  const header: Header = {
    length: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
  const body = message.subarray(HEADER_BYTES);
  if (header.opCode === OP_MSG) return { header, ...parseOpMsg(body) };
  if (header.opCode === OP_QUERY) return { header, command: parseOpQuery(body), noReply: false };
  throw new Error(`unsupported opCode ${header.opCode}`);
}

function parseOpMsg(body: Buffer): { command: Document; noReply: boolean } {
  const flags = body.readUInt32LE(0);
  const end = flags & CHECKSUM_PRESENT ? body.length - 4 : body.length;
  let command: Document | undefined;
  const sequences: Record<string, Document[]> = {};
  let offset = 4;
  while (offset < end) {
    const kind = body[offset];
    offset += 1;
    const size = body.readInt32LE(offset);
    if (kind === 0) {
      command = BSON.deserialize(body.subarray(offset, offset + size));
    } else if (kind === 1) {
      const idEnd = body.indexOf(0, offset + 4);
      const identifier = body.toString('utf8', offset + 4, idEnd);
      sequences[identifier] = readDocuments(body.subarray(idEnd + 1, offset + size));
    } else {
      throw new Error(`unknown OP_MSG section kind ${kind}`);
    }
    offset += size;
  }
  if (!command) throw new Error('OP_MSG without a body section');
  return { command: { ...command, ...sequences }, noReply: (flags & MORE_TO_COME) !== 0 };
}

function readDocuments(bytes: Buffer): Document[] {
  const docs: Document[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const size = bytes.readInt32LE(offset);
    docs.push(BSON.deserialize(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return docs;
}

/** OP_QUERY on `<db>.$cmd`: flags, collection name, skip, limit, then the command document. */
function parseOpQuery(body: Buffer): Document {
  const nameEnd = body.indexOf(0, 4);
  const namespace = body.toString('utf8', 4, nameEnd);
  const docStart = nameEnd + 1 + 8;
  const query = BSON.deserialize(body.subarray(docStart, docStart + body.readInt32LE(docStart)));
  // a read preference wraps the command as { $query: command, $readPreference }
  const command = (query.$query as Document | undefined) ?? query;
  return { ...command, $db: namespace.split('.')[0] };
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.writeInt32LE(length, 0);
  bytes.writeInt32LE(requestId, 4);
  bytes.writeInt32LE(responseTo, 8);
  bytes.writeInt32LE(opCode, 12);
  return bytes;
}

/** The reply in the form the request came in: OP_MSG for OP_MSG, OP_REPLY for OP_QUERY. */
export function encodeReply(request: Request, requestId: number, reply: Document): Buffer {
  const doc = Buffer.from(BSON.serialize(reply));
  if (request.header.opCode === OP_MSG) {
    const prefix = Buffer.alloc(5); // flags 0, then section kind 0
    const length = HEADER_BYTES + prefix.length + doc.length;
    return Buffer.concat([
      header(length, requestId, request.header.requestId, OP_MSG),
      prefix,
      doc,
    ]);
  }
  const fields = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom: 0; numberReturned
  fields.writeInt32LE(1, 16);
  const length = HEADER_BYTES + fields.length + doc.length;
  return Buffer.concat([
    header(length, requestId, request.header.requestId, OP_REPLY),
    fields,
    doc,
  ]);
}
