/// A movie of the catalog.
public struct Movie: Identifiable, Hashable, Sendable {
  /// The movie's identity.
  public let id: Int
  /// The title.
  public let title: String
  /// The year of release.
  public let year: Int

  /// Creates a movie.
  ///
  /// - Parameters:
  ///   - id: The movie's identity.
  ///   - title: The title.
  ///   - year: The year of release.
  public init(id: Int, title: String, year: Int) {
    self.id = id
    self.title = title
    self.year = year
  }
}

/// A review of a movie.
public struct Review: Hashable, Sendable {
  /// The rating, from 1 to 5 stars.
  public let stars: Int
  /// What the reviewer wrote.
  public let text: String

  /// Creates a review.
  ///
  /// - Parameters:
  ///   - stars: The rating, from 1 to 5 stars.
  ///   - text: What the reviewer wrote.
  public init(stars: Int, text: String) {
    self.stars = stars
    self.text = text
  }
}

/// One page of the catalog's movies.
public struct MoviePage: Hashable, Sendable {
  /// The page's number, from 1.
  public let number: Int
  /// How many pages the catalog has.
  public let count: Int
  /// The movies on the page.
  public let movies: [Movie]

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - number: The page's number, from 1.
  ///   - count: How many pages the catalog has.
  ///   - movies: The movies on the page.
  public init(number: Int, count: Int, movies: [Movie]) {
    self.number = number
    self.count = count
    self.movies = movies
  }
}
