/**
 * What the local stubs of the test tiers (the Telegram Bot API stub, the fake runner) share: reading a
 * request body, answering JSON (or a raw text body), and listening on a random loopback port.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString("utf8");
}

/** The body as it came, for a form whose file parts need not be text. */
export async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JSON answer; a string body is sent as it is (HTML, as a proxy in front of a real API would), 204 empty. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204) {
    res.writeHead(204).end();
    return;
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "Content-Type": typeof body === "string" ? "text/html" : "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** Listens on 127.0.0.1 and a free port (or `port`); `close` also ends kept-alive connections. */
export async function listenOnLoopback(server: Server, wanted = 0): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(wanted, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
