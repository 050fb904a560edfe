/**
 * Type tests: every stop reason the provider SDKs type is a stop reason of its format in the one
 * stop-reason table, so `toEvidence` (and the typestate layer) take an SDK's value as it is.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { StopReason as BedrockStopReason } from '@aws-sdk/client-bedrock-runtime';
import type { FinishReason as GeminiFinishReason } from '@google/genai';
import type { FinishReason as AISDKFinishReason } from 'ai';
import type OpenAI from 'openai';
import { expectAssignable, expectType } from 'tsd';
import type { ProtocolStopReasonOf, StopReasonOf } from 'turngate/join-check';

declare const anthropic: Anthropic.StopReason;
declare const chat: NonNullable<OpenAI.ChatCompletion.Choice['finish_reason']>;
declare const responses: NonNullable<NonNullable<OpenAI.Responses.Response['incomplete_details']>['reason']>;
declare const aisdk: AISDKFinishReason;
declare const gemini: `${GeminiFinishReason}`;
declare const bedrock: BedrockStopReason;
expectAssignable<StopReasonOf<'anthropic'>>(anthropic);
expectAssignable<StopReasonOf<'openai-chat'>>(chat);
expectAssignable<StopReasonOf<'openai-responses'>>(responses);
expectAssignable<StopReasonOf<'aisdk'>>(aisdk);
expectAssignable<StopReasonOf<'gemini'>>(gemini);
expectAssignable<StopReasonOf<'bedrock-converse'>>(bedrock);
expectType<'refusal'>({} as ProtocolStopReasonOf<'bedrock-converse', 'guardrail_intervened'>);
// @ts-expect-error -- "Type '"pause_turn"' is not assignable to type '""
const notBedrock: StopReasonOf<'bedrock-converse'> = 'pause_turn';
void notBedrock;
expectType<'pause_turn'>({} as ProtocolStopReasonOf<'openai-responses', 'steered'>);
// @ts-expect-error -- "Type '"end_turn"' is not assignable to type '""
const wrong: StopReasonOf<'openai-chat'> = 'end_turn';
void wrong;
