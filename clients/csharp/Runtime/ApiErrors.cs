using System;
using System.Collections.Generic;
using System.Globalization;

namespace Scoundrel.Referee
{
    /// <summary>
    /// A request the API refused, or that never got an answer. The service answers every error as
    /// {"code", "status", "message"} plus "errors" for a 422 (service/errors.py, docs/api.md "Errors");
    /// each status it answers has a subclass here, so a game catches what it can handle.
    /// </summary>
    public class ApiException : Exception
    {
        /// <summary>The code of each HTTP status the API answers with; any other is "http_error".</summary>
        public static readonly IReadOnlyDictionary<int, string> StatusCodes = new Dictionary<int, string>
        {
            { 400, "bad_request" }, // the body is not JSON, or not HTTP the server can read
            { 401, "unauthorized" }, // no token, a wrong one, a studio's refused (Reason says why)
            { 403, "forbidden" }, // another player's token; a studio's account with no player yet (Reason "not_linked")
            { 404, "not_found" },
            { 405, "method_not_allowed" },
            { 409, "conflict" }, // a taken name, a dealt game moved on or over, a second game in play
            { 413, "too_large" }, // the body is larger than the service accepts
            { 414, "uri_too_long" },
            { 415, "unsupported_media_type" }, // a body not sent as application/json
            { 422, "invalid" }, // a malformed request: see Errors
            { 429, "rate_limited" }, // see RetryAfter
            { 431, "headers_too_large" },
            { 500, "server_error" }, // the message names the request id to quote
            { 501, "not_implemented" },
            { 503, "unavailable" }, // the service's store is away: see RetryAfter
        };

        /// <summary>The HTTP status, or null when there was no answer (network_error, timeout) or nothing was sent (invalid).</summary>
        public int? Status { get; }
        /// <summary>From StatusCodes, "http_error" for another status, or "network_error", "timeout", "invalid".</summary>
        public string Code { get; }
        /// <summary>The field errors of a 422 ({field: [messages]}), else null.</summary>
        public JsonObject Errors { get; }
        /// <summary>Seconds to wait from the Retry-After header, else null.</summary>
        public int? RetryAfter { get; }
        /// <summary>The answer's "reason", when it gives one (a studio token refused, not_linked, a tournament's refusal…).</summary>
        public string Reason { get; }
        /// <summary>The parsed answer body (a JsonObject for the service's errors), or null.</summary>
        public object Body { get; }

        public ApiException(string message, int? status, string code, object body = null, int? retryAfter = null, Exception cause = null)
            : base(message, cause)
        {
            Status = status;
            Code = code;
            Body = body;
            RetryAfter = retryAfter;
            var json = body as JsonObject;
            Errors = json == null ? null : json.GetObject("errors");
            Reason = json == null ? null : json.GetString("reason");
        }

        /// <summary>The exception of an error answer: the subclass for its status.</summary>
        internal static ApiException Of(int status, string message, object body, int? retryAfter)
        {
            switch (status)
            {
                case 400: return new BadRequestException(message, body);
                case 401: return new UnauthorizedException(message, body);
                case 403: return new ForbiddenException(message, body);
                case 404: return new NotFoundException(message, body);
                case 409: return new ConflictException(message, body, retryAfter);
                case 413: return new TooLargeException(message, body);
                case 422: return new InvalidRequestException(message, body);
                case 429: return new RateLimitedException(message, body, retryAfter);
                case 503: return new UnavailableException(message, body, retryAfter);
                default:
                    string code;
                    return new ApiException(message, status, StatusCodes.TryGetValue(status, out code) ? code : "http_error", body, retryAfter);
            }
        }

        /// <summary>Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or null.</summary>
        public static int? ParseRetryAfter(string header, DateTimeOffset now)
        {
            if (string.IsNullOrWhiteSpace(header)) return null;
            var text = header.Trim();
            int seconds;
            if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out seconds)) return seconds;
            DateTimeOffset at;
            if (!DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out at)) return null;
            return Math.Max(0, (int)Math.Ceiling((at - now).TotalSeconds));
        }
    }

    /// <summary>400: the body is not JSON (Errors["_schema"] says why), or the request is not HTTP the server can read.</summary>
    public sealed class BadRequestException : ApiException
    {
        public BadRequestException(string message, object body) : base(message, 400, "bad_request", body)
        {
        }
    }

    /// <summary>401: no token, a wrong or revoked one, or a studio's token refused (Reason: token_expired, wrong_audience, …).</summary>
    public sealed class UnauthorizedException : ApiException
    {
        public UnauthorizedException(string message, object body) : base(message, 401, "unauthorized", body)
        {
        }
    }

    /// <summary>403: another player's token, or a studio account with no player yet (Reason "not_linked").</summary>
    public sealed class ForbiddenException : ApiException
    {
        public ForbiddenException(string message, object body) : base(message, 403, "forbidden", body)
        {
        }
    }

    /// <summary>404: no such player, run, game, board place or tournament (another player's game in play too).</summary>
    public sealed class NotFoundException : ApiException
    {
        public NotFoundException(string message, object body) : base(message, 404, "not_found", body)
        {
        }
    }

    /// <summary>
    /// 409: a name taken; a dealt game with another number of moves than expected (Moves), or over; a
    /// second game in play or a second sealed daily (GameId); a sealed day or a tournament closed
    /// (Reason "sealed_day_over" with Ruling R18, "ended" R19); a tournament's refusal (Reason).
    /// </summary>
    public sealed class ConflictException : ApiException
    {
        /// <summary>The game the conflict names (the one in play, today's sealed daily), or null.</summary>
        public string GameId { get; }
        /// <summary>The number of moves the game has, for a move or a forfeit that expected another; or null.</summary>
        public int? Moves { get; }
        public string Ruling { get; }

        public ConflictException(string message, object body, int? retryAfter = null) : base(message, 409, "conflict", body, retryAfter)
        {
            var json = body as JsonObject;
            if (json == null) return;
            GameId = json.GetString("game_id");
            Moves = json.GetInt("moves");
            Ruling = json.GetString("ruling");
        }
    }

    /// <summary>413: the body is larger than the service accepts (the message names the limit).</summary>
    public sealed class TooLargeException : ApiException
    {
        public TooLargeException(string message, object body) : base(message, 413, "too_large", body)
        {
        }
    }

    /// <summary>422: a malformed request: Errors per field; a refused dealt move carries the engine's MoveError.</summary>
    public sealed class InvalidRequestException : ApiException
    {
        /// <summary>The refused move of a dealt game ({code, move_index, message, ruling}, the index counting in the request), or null.</summary>
        public RuleError MoveError { get; }

        public InvalidRequestException(string message, object body) : base(message, 422, "invalid", body)
        {
            var json = body as JsonObject;
            MoveError = json == null ? null : RuleError.FromJson(json.GetObject("error"));
        }

        /// <summary>Refused before anything was sent: the errors the service would answer.</summary>
        public InvalidRequestException(string message, JsonObject errors)
            : base(message, null, "invalid", new JsonObject { { "errors", errors } })
        {
        }
    }

    /// <summary>429: too many requests for this token or address; RetryAfter says when to try again.</summary>
    public sealed class RateLimitedException : ApiException
    {
        public RateLimitedException(string message, object body, int? retryAfter) : base(message, 429, "rate_limited", body, retryAfter)
        {
        }
    }

    /// <summary>503: the service's store is away or refusing writes; nothing was changed; RetryAfter says when to try again.</summary>
    public sealed class UnavailableException : ApiException
    {
        public UnavailableException(string message, object body, int? retryAfter) : base(message, 503, "unavailable", body, retryAfter)
        {
        }
    }
}
