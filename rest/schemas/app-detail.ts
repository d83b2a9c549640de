import { z } from 'zod';
import { App, INSTALL_BASE_SAMPLE_SIZE } from './apps.ts';
import { StoreCard } from './stores.ts';

export const AppDetail = z
  .strictObject({
    ...App.shape,
    installBaseSample: z.array(StoreCard).meta({
      description:
        `Observed install-base sample: up to ${INSTALL_BASE_SAMPLE_SIZE} stores running the app, busiest first. ` +
        'The whole list is GET /v1/apps/{slug}/stores.',
    }),
  })
  .meta({ id: 'AppDetail', description: 'App catalog row plus the observed install-base sample.' });
