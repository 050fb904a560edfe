import { describe, expect, it, vi } from 'vitest';
import { fenceRefusal, LeaseProtocol } from './lease.ts';
import { SessionLockTimeout, SessionWriteConflict } from './store-errors.ts';

const pacing = { pollMs: 2, releaseBackoffMs: [1, 2] } as const;
const transient = Object.assign(new Error('the server is restarting'), { transient: true });
const isTransient = (error: unknown) => error === transient;

describe('the lease protocol', () => {
  it('gives a keyed send one token per store object and key; an unkeyed turn a fresh one', () => {
    const leases = new LeaseProtocol(1000, 1000, pacing);
    const other = new LeaseProtocol(1000, 1000, pacing);
    expect(leases.token('k-1')).toBe(leases.token('k-1'));
    expect(leases.token('k-1')).not.toBe(leases.token('k-2'));
    expect(leases.token('k-1')).not.toBe(other.token('k-1'));
    expect(leases.token(undefined)).not.toBe(leases.token(undefined));
  });

  it('retries a release that failed for a transient reason until it lands, and reports the first failure', async () => {
    const leases = new LeaseProtocol(60_000, 1000, pacing);
    let attempts = 0;
    const release = vi.fn(() => {
      attempts++;
      if (attempts < 4) throw transient;
    });
    expect(await leases.release('s', 't', release, isTransient)).toBe(transient);
    await vi.waitFor(() => expect(attempts).toBe(4));
    expect(leases.stop()).toEqual([]); // nothing left pending
  });

  it('leaves any other failure to the lease', async () => {
    const leases = new LeaseProtocol(60_000, 1000, pacing);
    const broken = new Error('no such table');
    const release = vi.fn(() => {
      throw broken;
    });
    expect(await leases.release('s', 't', release, isTransient)).toBe(broken);
    expect(leases.stop()).toEqual([]);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('stops a release being retried when the same token takes the session again', async () => {
    const leases = new LeaseProtocol(60_000, 1000, pacing);
    let attempts = 0;
    await leases.release(
      's',
      't',
      () => {
        attempts++;
        throw transient;
      },
      isTransient,
    );
    await vi.waitFor(() => expect(attempts).toBeGreaterThan(1));
    expect(await leases.take('s', 't', () => 'held')).toBe('held');
    const stoppedAt = attempts;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(stoppedAt);
  });

  it('keeps a release of another token or session going, and hands the pending ones to the driver on stop', async () => {
    const leases = new LeaseProtocol(60_000, 1000, pacing);
    const failing = () => {
      throw transient;
    };
    await leases.release('s', 't', failing, isTransient);
    await leases.release('s2', 't', failing, isTransient);
    await leases.take('s', 'other', () => true);
    expect(leases.stop().sort()).toEqual([
      ['s', 't'],
      ['s2', 't'],
    ]);
    // Once stopped, a failed release is not retried.
    expect(await leases.release('s3', 't', failing, isTransient)).toBe(transient);
    expect(leases.stop()).toEqual([]);
  });

  it('tries to take until the attempt holds, and times out while another holder keeps it', async () => {
    const leases = new LeaseProtocol(1000, 30, pacing);
    let tries = 0;
    expect(await leases.take('s', 't', () => (++tries < 3 ? undefined : 'held'))).toBe('held');
    expect(tries).toBe(3);
    await expect(leases.take('s', 't', () => undefined)).rejects.toBeInstanceOf(SessionLockTimeout);
  });

  it('names what holds the session when a save is fenced', () => {
    const taken = fenceRefusal('s', 3, 3, 'another-token');
    expect(taken).toBeInstanceOf(SessionWriteConflict);
    expect(taken.message).toBe('session s is at version 3, but its lease ran out and another turn holds it');
    expect(fenceRefusal('s', 3, 3, undefined).message).toBe(
      'session s is at version 3, but its lease was lost (released or cleared, as by a server restart) before the save',
    );
  });
});
