/**
 * Bounds on what one request may cost the node: the {@link io.god.limits.Limits} settings
 * ({@code god.limits.*}) and their checks, the per-call {@link io.god.limits.CallBudget} (result rows,
 * result bytes, evaluation time), the {@link io.god.limits.Bulkhead} for expensive calls and the
 * {@link io.god.limits.ByteBudget} shared by the binary connections' frame buffers. Every front end
 * (god JSON contract, /v1, binary data calls) uses these same checks.
 */
package io.god.limits;
