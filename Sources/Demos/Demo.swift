import Flipbook

/// One of Flipbook's built-in demos: an animation from a published article, rebuilt with
/// Flipbook's public API, with the duration and frame rate its GIF plays at.
///
/// The demos are Flipbook's showcase (`flipbook demo`, the README's gallery) and its proof that
/// Core Animation code carries over: each scene is built the way the article builds it, with the
/// article's numbers.
public struct Demo: Sendable {
  /// The demo's name on the command line: `radar`, `cradle`, `waves`, `spinner`, `cat`,
  /// `counter`, `shimmer`, `activity`, `lift` or `flip`.
  public let name: String
  /// A one-line description (what `flipbook demo --list` prints).
  public let summary: String
  /// Builds the scene; every call gives a new, identical instance.
  public let recipe: SceneRecipe

  /// Creates a demo from its name, description and recipe.
  public init(name: String, summary: String, recipe: SceneRecipe) {
    self.name = name
    self.summary = summary
    self.recipe = recipe
  }

  /// Every built-in demo: the articles' in their order, then the text demo, then the effects
  /// demos, then the 3D demo.
  public static let all: [Demo] = [
    Demo(
      name: "radar",
      summary:
        "Pulsing radar: six staggered rings; items pop in and fade out where nothing else is (article 000)",
      recipe: SceneRecipe { Radar.makeScene() }),
    Demo(
      name: "cradle",
      summary:
        "Newton's cradle in UIKit Dynamics: gravity, attachments, elastic collisions, a push (article 001)",
      recipe: SceneRecipe { NewtonsCradle.makeScene() }),
    Demo(
      name: "waves",
      summary:
        "Pull-to-refresh waves: a sine and a cosine shape layer redrawn on every display-link tick (article 002)",
      recipe: SceneRecipe { Waves.makeScene() }),
    Demo(
      name: "spinner",
      summary:
        "Activity indicator: eight arcs drawn into eight images, played by a discrete contents keyframe animation (article 003)",
      recipe: SceneRecipe { Spinner.makeScene() }),
    Demo(
      name: "cat",
      summary:
        "Cat waiting HUD: the eyes follow a mouse round the face, pupils turning about moved anchor points (article 004)",
      recipe: SceneRecipe { CatWaitingHUD.makeScene() }),
    Demo(
      name: "counter",
      summary:
        "Text layers: a title whose letters fade in one after another, a percentage counting up with a spring",
      recipe: SceneRecipe { TextCounter.makeScene() }),
    Demo(
      name: "shimmer",
      summary:
        "Shimmer placeholder: a gradient's locations sweep a highlight across rounded rows that mask it",
      recipe: SceneRecipe { Shimmer.makeScene() }),
    Demo(
      name: "activity",
      summary:
        "Replicator activity indicator: one dot, twelve instances, one fade staggered by instanceDelay",
      recipe: SceneRecipe { ActivityDots.makeScene() }),
    Demo(
      name: "lift",
      summary:
        "Lifting card: shadow radius, offset and opacity animated with a scale, then settling back",
      recipe: SceneRecipe { LiftingCard.makeScene() }),
    Demo(
      name: "flip",
      summary:
        "3D: a card flips to its back and over again on a spring (m34, isDoubleSided), a cube turns in a transform layer",
      recipe: SceneRecipe { FlipAndCube.makeScene() }),
  ]

  /// The built-in demo called `name`, if there is one.
  public static func named(_ name: String) -> Demo? {
    all.first { $0.name == name }
  }
}
