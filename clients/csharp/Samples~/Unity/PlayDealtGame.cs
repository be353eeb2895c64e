using System;
using System.Threading;
using Scoundrel.Referee;
using UnityEngine;

/// <summary>
/// Plays one game the referee deals when the scene starts, logging every move, then checks the deal once
/// the seed is revealed. Add it to a GameObject, set the API's URL and the player's token (from
/// RefereeClient.RegisterAsync, or a studio's JWT after SignInAsync) in the Inspector, and press Play.
/// A real game shows the room and lets the player pick among the legal moves; this one plays the first.
/// </summary>
public class PlayDealtGame : MonoBehaviour
{
    [Tooltip("The referee's API, e.g. https://referee.example.com")]
    public string baseUrl = "http://127.0.0.1:8000";

    [Tooltip("The player's token")]
    public string playerToken = "";

    public Variant variant = Variant.Classic;

    private readonly CancellationTokenSource cancellation = new CancellationTokenSource();

    // Unity runs the continuations of an async Start on the main thread: the game may touch scene objects.
    private async void Start()
    {
        try
        {
            using (var referee = new RefereeClient(baseUrl, playerToken))
            {
                var game = await referee.StartGameAsync(new GameOptions { Variant = variant }, cancellation.Token);
                Debug.Log($"Dealt game {game.State.Id} ({variant.Name()}), commitment {game.State.Commitment}");
                while (!game.Over)
                {
                    var move = game.LegalMoves()[0];
                    var state = await game.PlayAsync(move, cancellation.Token);
                    Debug.Log($"{move}: room {string.Join(" ", state.Room)}, health {state.Health}, weapon {state.Weapon ?? "none"}");
                }
                Debug.Log($"Game over: {game.State.Status} after {game.State.Moves.Count} moves");
                var check = await game.VerifyCommitmentAsync(cancellation: cancellation.Token);
                if (check.Ok) Debug.Log($"The deal checks out: seed {check.Seed}, verified score {check.Run.Score}");
                else Debug.LogError("The deal does not check out: " + string.Join("; ", check.Mismatches));
            }
        }
        catch (OperationCanceledException)
        {
            // the scene is closing
        }
        catch (ApiException refused)
        {
            Debug.LogError($"The referee refused ({refused.Code}): {refused.Message}");
        }
    }

    private void OnDestroy()
    {
        cancellation.Cancel();
    }
}
