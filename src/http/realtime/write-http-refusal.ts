import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpRefusal {
  status: number;
  /** Lower-case names; `content-length` and `connection` are the writer's. */
  headers: Readonly<Record<string, string>>;
  body: Buffer | string;
}

/**
 * Answers an upgrade request the gateway does not take with a plain HTTP response on the raw
 * socket, then closes it: after the `upgrade` event Node's HTTP server writes nothing more there.
 */
export function writeHttpRefusal(socket: Duplex, refusal: HttpRefusal): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = typeof refusal.body === 'string' ? Buffer.from(refusal.body, 'utf8') : refusal.body;
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'connection: close',
    `content-length: ${body.length}`,
  ];
  for (const [name, value] of Object.entries(refusal.headers)) {
    if (name === 'content-length' || name === 'connection') continue;
    // Values an upstream sent are passed through: no line breaks may split the head.
    lines.push(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`);
  }
  socket.once('finish', () => socket.destroy());
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}
