import { formatNumber } from '../lib/format';
import {
  compareCount,
  compareCrashFree,
  compareRate,
  healthBasisLabel,
  rawHealthFigures,
  sessionsCrashFree,
  type HealthFigure,
  type ReleaseHealth,
} from '../lib/release-health';

const DIRECTION_WORDS = { better: 'better', worse: 'worse', same: 'unchanged' } as const;

/** One figure, and under it the change since the previous release and that release's figure. */
function FigureCell({ figure, detail, basis }: { figure: HealthFigure; detail?: string; basis?: string }) {
  return (
    <td className="num health-cell">
      <span className="health-value">{figure.value}</span>
      {detail && <span className="health-previous">{detail}</span>}
      {figure.change !== null && (
        <span className={`health-change${figure.direction ? ` change-${figure.direction}` : ''}`}>
          {figure.change}
          {figure.direction && <span className="visually-hidden"> ({DIRECTION_WORDS[figure.direction]})</span>}
        </span>
      )}
      {figure.previous !== null && <span className="health-previous">{figure.previous}</span>}
      {basis && <span className="health-basis">{basis}</span>}
    </td>
  );
}

export const HEALTH_COLUMNS = ['Issues introduced', 'Regressions', 'Crash-free users', 'Events / hour'] as const;

/** The four health cells of a release row, in HEALTH_COLUMNS order. */
export function ReleaseHealthCells({ health }: { health: ReleaseHealth | null }) {
  if (!health) {
    // The release was re-registered or removed between the list and its health: nothing to show.
    return HEALTH_COLUMNS.map((c) => (
      <td key={c} className="num muted">
        —
      </td>
    ));
  }
  const basis = healthBasisLabel(health);
  if (!health.enoughData) {
    return (
      <>
        {rawHealthFigures(health).map((figure, i) =>
          i === 2 && health.basis === 'SESSIONS' ? (
            <FigureCell key={HEALTH_COLUMNS[i]} {...sessionsCrashFree(health, false)} basis={basis} />
          ) : (
            <FigureCell key={HEALTH_COLUMNS[i]} figure={figure} basis={i === 2 ? basis : undefined} />
          ),
        )}
      </>
    );
  }
  const version = health.previousVersion;
  return (
    <>
      <FigureCell figure={compareCount(health.issuesIntroduced, health.previousIssuesIntroduced, version)} />
      <FigureCell figure={compareCount(health.regressions, health.previousRegressions, version)} />
      {health.basis === 'SESSIONS' ? (
        <FigureCell {...sessionsCrashFree(health, true)} basis={basis} />
      ) : (
        <FigureCell
          figure={compareCrashFree(health.crashFreeUsers, health.previousCrashFreeUsers, version)}
          detail={
            health.usersSeen
              ? `of ${formatNumber(health.usersSeen)} ${health.usersSeen === 1 ? 'user' : 'users'}`
              : 'no users named'
          }
          basis={basis}
        />
      )}
      <FigureCell figure={compareRate(health)} />
    </>
  );
}
