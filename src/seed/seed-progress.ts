// The first start's seed, told as it goes: a line when a phase begins and at every tenth of the
// stores loaded, so a terminal shows the seed moving instead of a minute of silence.
import type { Logger } from '../platform/logger.ts';
import type { SeedProgress } from './seed-catalog.ts';

export function logSeedProgress(logger: Pick<Logger, 'info'>): (progress: SeedProgress) => void {
  let phase: SeedProgress['phase'] | undefined;
  let tenths = 0;
  const startedAt = Date.now();
  return ({ phase: now, storesDone, storesTotal }) => {
    const reached = storesTotal > 0 ? Math.floor((storesDone * 10) / storesTotal) : 10;
    if (now === phase && (now !== 'loading' || reached <= tenths)) return;
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    if (now === 'loading') {
      tenths = reached;
      logger.info(
        { phase: now, storesDone, storesTotal },
        `seeding: ${storesDone.toLocaleString('en-US')} of ${storesTotal.toLocaleString('en-US')} stores loaded (${reached * 10} %, ${seconds} s)`,
      );
    } else {
      logger.info(
        { phase: now, storesTotal },
        `seeding: ${now === 'indexing' ? 'building the indexes' : 'analyzing and vacuuming'} (${seconds} s)`,
      );
    }
    phase = now;
  };
}
