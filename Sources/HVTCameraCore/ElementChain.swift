import HVTGStreamer

/// Live elements made from descriptions, added to a bin and linked in order.
package struct ElementChain {
  /// The elements, in chain order.
  package let elements: [Element]

  /// Makes each element, sets its properties and adds it to `bin`; links them in order when `link` is true.
  /// On failure, removes from `bin` whatever it added, so no half-built chain is left behind.
  package init(_ descriptions: [HVTElementDescription], in bin: Bin, link: Bool = true) throws {
    var made: [Element] = []
    do {
      for description in descriptions {
        let element = try Self.make(description)
        try bin.add(element)
        made.append(element)
      }
      if link {
        for (upstream, downstream) in zip(made, made.dropFirst()) {
          try upstream.link(to: downstream)
        }
      }
    } catch {
      made.forEach(bin.remove)
      throw HVTCameraError(error)
    }
    elements = made
  }

  /// The first element (where the chain's input is).
  package var first: Element { elements[0] }
  /// The last element (where the chain's output is).
  package var last: Element { elements[elements.count - 1] }

  /// Makes one element and sets its properties, naming the element in any error.
  package static func make(_ description: HVTElementDescription) throws -> Element {
    let element = try Element(factory: description.factory, name: description.name)
    for property in description.properties {
      try element.setProperty(property.name, fromString: property.value)
    }
    return element
  }
}
