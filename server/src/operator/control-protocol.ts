/** The control socket's wire format (decision 052): one JSON line each way, then the server closes. */
export const CONTROL_PROTOCOL = 1;

export interface ControlRequest {
  v: typeof CONTROL_PROTOCOL;
  /** The contents of `control/token` in the data folder: proof the sender can read it. */
  token: string;
  command: string;
  args: string[];
}

/** As the operator command exits: 0 done, 1 failed (or refused), 2 bad usage; `out` is what it prints. */
export interface ControlAnswer {
  code: number;
  out: string;
}
