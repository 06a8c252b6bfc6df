import {
  context,
  INVALID_SPAN_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type SpanKind,
  type Tracer,
} from '@opentelemetry/api';

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /**
   * Only as a part of a traced operation: with no span active, `work` runs untraced (an engine
   * call of a background round would otherwise start a trace of its own every few seconds).
   */
  childOnly?: boolean;
}

/** Whether work now is part of a traced operation (a span is active). */
export const hasActiveSpan = (): boolean => trace.getSpan(context.active()) !== undefined;

/** Marks a span failed by what was thrown. */
export function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Runs `work` inside a span (the active one while it runs), ended when `work` settles. */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  work: (span: Span) => Promise<T>,
  { attributes, kind, childOnly = false }: SpanOptions = {},
): Promise<T> {
  if (childOnly && !hasActiveSpan()) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer.startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
