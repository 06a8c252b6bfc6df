import {
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Tracing } from './tracing';

export interface RequestSpansOptions {
  tracing: Tracing;
}

/**
 * A server span per request, named by its route pattern (`POST /api/public/request_kasm`), the
 * child of the caller's span when a `traceparent` header names one. Route handlers run with it
 * active, so the spans they make are its children. Paths and queries stay out of it: some carry
 * secrets (feed addresses, session tokens). With tracing off nothing is registered.
 */
async function requestSpansPlugin(app: FastifyInstance, { tracing }: RequestSpansOptions) {
  app.addHook('onClose', () => tracing.shutdown());
  if (!tracing.enabled) return;
  const { tracer } = tracing;
  const propagator = new W3CTraceContextPropagator();
  const contexts = new WeakMap<FastifyRequest, Context>();

  app.addHook('onRequest', async (request) => {
    const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const span = tracer.startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      parent,
    );
    contexts.set(request, trace.setSpan(parent, span));
  });

  const end = (request: FastifyRequest, statusCode: number | null) => {
    const span = trace.getSpan(contexts.get(request) ?? ROOT_CONTEXT);
    contexts.delete(request);
    if (!span) return;
    const route = request.is404 ? undefined : request.routeOptions.url;
    if (route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    if (statusCode === null) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client went away' });
    } else {
      span.setAttribute('http.response.status_code', statusCode);
      if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  };
  app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
  app.addHook('onRequestAbort', async (request) => end(request, null));

  // Wrapping the handler (not continuing the hook chain in the context) keeps the span active
  // through body parsing's stream events, which would otherwise lose it.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracedHandler(request, reply) {
      const active = contexts.get(request);
      return active
        ? context.with(active, handler, this, request, reply)
        : handler.call(this, request, reply);
    };
  });
}

export const requestSpans = fp(requestSpansPlugin, { name: 'request-spans' });
