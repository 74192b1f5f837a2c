import { Initial1763769600000 } from './1763769600000-initial';

/** In order. Add new migrations at the end; never edit one that has shipped. */
export const MIGRATIONS = [Initial1763769600000];
