import { describe, expect, it } from 'vitest';
import { peerVerdict, ratiosByRound } from '../../bench/report.ts';
import type { PeerFigures, PeerResult } from '../../bench/peers/run-peers.ts';

/** A peer's figures from the req/s of its three rounds; the medians are what the bench would report. */
function figures(rounds: number[]): PeerFigures {
  const runs = rounds.map((rps) => ({
    rps,
    p50Ms: 1,
    p99Ms: 2,
    serverCpuMs: 0.1,
    postgresCpuMs: 0.1,
  }));
  const median = [...rounds].sort((a, b) => a - b)[1]!;
  return { ...runs[1]!, rps: median, non2xx: 0, errors: 0, runs };
}

describe('the peer table', () => {
  // a row whose ratio of medians meets 1.5 while two of its rounds did not: 3,000 / 2,112 = 1.42,
  // 3,160 / 2,000 = 1.58, 2,980 / 2,000 = 1.49; medians 3,000 / 2,000 = 1.50. Against the floor:
  // 3,000 / 3,900 = 0.77, 3,160 / 4,000 = 0.79, 2,980 / 3,200 = 0.93; medians 3,000 / 3,900 = 0.77
  const service = figures([3_000, 3_160, 2_980]);
  const postgraphile = figures([2_112, 2_000, 2_000]);
  const floor = figures([3_900, 4_000, 3_200]);

  it('gives the service over each peer in each round, in run order', () => {
    expect(ratiosByRound(service, postgraphile)).toBe('1.42 1.58 1.49');
    expect(ratiosByRound(service, floor)).toBe('0.77 0.79 0.93');
  });

  it('judges the ratio of the medians, as before', () => {
    const row: PeerResult = {
      route: 'a row',
      connections: 4,
      service,
      postgraphile,
      plain: floor,
      floorTarget: 0.8,
    };
    expect(peerVerdict(row)).toBe('MISSED (0.77× floor < 0.8)');
  });
});
