import { signal } from '@preact/signals-react';
import {
  getPrpo_report,
  getPrpTReport,
  getPrpTReportH5Url,
  getReportH5Url,
  revokeReportH5Url,
} from '../../../api/calls';
import type { Part, Report, ReportUrlData } from '../../../api/contract';
import { makeLoader } from '../../stores/loader';
import { onClearLocalData } from '../../stores/session';

/**
 * Which run's report: prpo a record id (save_question_record's recordId) or a run id; prpt nothing
 * (the learner's latest training, docs/api.md), a run id, or a film (that film's latest run).
 */
export interface ReportSelector {
  id?: string;
  runId?: string;
  filmId?: string;
}

/** The report calls that differ between the parts (docs/api.md, "Reports"). */
interface ReportCalls {
  report(sel: ReportSelector): Promise<Report>;
  /** The signed H5 link of the run whose report is shown. */
  reportUrl(sel: { id?: string; runId?: string }): Promise<ReportUrlData>;
}

const CALLS: Record<Part, ReportCalls> = {
  prpo: {
    report: (sel) => getPrpo_report(sel.runId ? { runId: sel.runId } : { id: sel.id ?? '' }),
    reportUrl: (sel) => getReportH5Url(sel),
  },
  prpt: {
    report: (sel) => getPrpTReport({ runId: sel.runId, filmId: sel.filmId }),
    reportUrl: (sel) => getPrpTReportH5Url(sel),
  },
};

/**
 * One part's report screen state: the report (`prpoReport` / `prpTReport`) and its H5 link, with
 * their loaders (failures logged only). Emptied by logout and session expiry.
 */
function createReportState(part: Part) {
  const calls = CALLS[part];
  const report = signal<Report | null>(null);
  const reportH5Url = signal<string>('');
  const reset = () => {
    report.value = null;
    reportH5Url.value = '';
  };
  onClearLocalData(reset);
  return {
    report,
    reportH5Url,
    loadReport: makeLoader(
      `${part} report`,
      (sel: ReportSelector = {}) => calls.report(sel),
      (r) => {
        report.value = r;
      },
    ),
    loadReportH5Url: makeLoader(
      `${part} report url`,
      (sel: { id?: string; runId?: string }) => calls.reportUrl(sel),
      (r) => {
        reportH5Url.value = r.url;
      },
    ),
    /** Ends the run's share links given out so far; the link shown is one of them, so it goes. */
    revokeShare: async (sel: { id?: string; runId?: string }) => {
      await revokeReportH5Url(part, sel);
      reportH5Url.value = '';
    },
    reset,
  };
}

const STATES = { prpo: createReportState('prpo'), prpt: createReportState('prpt') } as const;

export const reportState = (part: Part) => STATES[part];
