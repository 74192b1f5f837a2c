import { Initial1763769600000 } from './1763769600000-initial';
import { LogsVitalsFeedback1795315200000 } from './1795315200000-logs-vitals-feedback';

/** In order. Add new migrations at the end; never edit one that has shipped. */
export const MIGRATIONS = [Initial1763769600000, LogsVitalsFeedback1795315200000];
