// The Signal GraphQL type's reference, apart from its fields, so the parts of the Signals feature
// (lifecycle and probes, sales, insights, ads, app and product changes) each add their own fields.
import { builder } from '../graphql/builder.ts';
import type { WatchRecord } from './watch-record.ts';

export const SignalRef = builder.objectRef<WatchRecord>('Signal');
