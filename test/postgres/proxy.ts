/**
 * A loopback TCP proxy in front of the test server, for the faults a test cannot ask of a shared
 * server: the server going away (every connection cut, new ones closed at once) and coming
 * back, and the answer to one statement lost after the server ran it.
 */
import net from 'node:net';

/** A running proxy. */
export interface PgProxy {
  /** The test server's URL with the proxy's port. */
  readonly url: string;
  /** Cuts every connection and closes each new one at once, until {@link up}. */
  down(): void;
  /** Forwards connections again. */
  up(): void;
  /**
   * Drops the answer of the statements `lose` picks (called with each statement text the client
   * sends that contains `marker`, and its count so far): the statement reaches the server, the
   * connection is cut before its answer reaches the client.
   */
  loseAnswers(marker: string, lose: (count: number) => boolean): void;
  /** How many answers were dropped. */
  readonly dropped: number;
  close(): Promise<void>;
}

/** Starts a proxy to the server of `url` on a free loopback port. */
export async function startProxy(url: string): Promise<PgProxy> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  let isDown = false;
  let rule: { marker: string; lose: (count: number) => boolean } | undefined;
  let seen = 0;
  let dropped = 0;
  const server = net.createServer((client) => {
    if (isDown) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let armed = false;
    client.on('data', (chunk: Buffer) => {
      if (rule !== undefined && chunk.toString('latin1').includes(rule.marker)) {
        seen++;
        if (rule.lose(seen)) armed = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (armed) {
        dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const proxied = new URL(url);
  proxied.port = String(address.port);
  return {
    url: proxied.toString(),
    down: () => {
      isDown = true;
      for (const socket of sockets) socket.destroy();
    },
    up: () => {
      isDown = false;
    },
    loseAnswers: (marker, lose) => {
      rule = { marker, lose };
    },
    get dropped() {
      return dropped;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
