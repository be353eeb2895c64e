using System;
using System.Threading;
using Godot;
using Scoundrel.Referee;

/// <summary>
/// Plays one game the referee deals when the node enters the scene tree, printing every move, then
/// checks the deal once the seed is revealed. Attach it to a Node, set the API's URL and the player's
/// token in the Inspector, and run the scene. A real game shows the room and lets the player pick among
/// the legal moves; this one plays the first.
/// </summary>
public partial class PlayDealtGame : Node
{
    [Export] public string BaseUrl { get; set; } = "http://127.0.0.1:8000";

    [Export] public string PlayerToken { get; set; } = "";

    /// <summary>classic, easy or hard.</summary>
    [Export] public string GameVariant { get; set; } = "classic";

    private readonly CancellationTokenSource cancellation = new CancellationTokenSource();

    // Godot runs the continuations of an async _Ready on the main thread: the game may touch nodes.
    public override async void _Ready()
    {
        try
        {
            using (var referee = new RefereeClient(BaseUrl, PlayerToken))
            {
                var options = new GameOptions { Variant = Variants.Parse(GameVariant) };
                var game = await referee.StartGameAsync(options, cancellation.Token);
                GD.Print($"Dealt game {game.State.Id} ({GameVariant}), commitment {game.State.Commitment}");
                while (!game.Over)
                {
                    var move = game.LegalMoves()[0];
                    var state = await game.PlayAsync(move, cancellation.Token);
                    GD.Print($"{move}: room {string.Join(" ", state.Room)}, health {state.Health}, weapon {state.Weapon ?? "none"}");
                }
                GD.Print($"Game over: {game.State.Status} after {game.State.Moves.Count} moves");
                var check = await game.VerifyCommitmentAsync(cancellation: cancellation.Token);
                if (check.Ok) GD.Print($"The deal checks out: seed {check.Seed}, verified score {check.Run.Score}");
                else GD.PrintErr("The deal does not check out: " + string.Join("; ", check.Mismatches));
            }
        }
        catch (OperationCanceledException)
        {
            // the node is leaving the tree
        }
        catch (ApiException refused)
        {
            GD.PrintErr($"The referee refused ({refused.Code}): {refused.Message}");
        }
    }

    public override void _ExitTree()
    {
        cancellation.Cancel();
    }
}
