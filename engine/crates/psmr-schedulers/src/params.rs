//! What every family's parameter object shares: the [`Params`] trait (its
//! value checks), the shared checks (queue capacity, spin policy), and
//! [`fields_of`], which reads an object's field names from its `Serialize`
//! implementation, so no hand-kept list of fields can miss one.

use psmr_core::ClassTable;
use serde::ser::{self, Impossible};
use serde::Serialize;

use crate::spin::SpinPolicy;

/// Default per-worker queue capacity.
pub const DEFAULT_QUEUE_CAPACITY: usize = 1024;
/// Largest queue capacity a scenario may ask for.
pub const MAX_QUEUE_CAPACITY: usize = 1 << 20;
/// Longest sleep between checks a spin policy may ask for (1 s).
pub const MAX_PARK_US: u32 = 1_000_000;

/// What a parameter object's values are checked against.
#[derive(Clone, Copy)]
pub struct ParamEnv<'a> {
    /// The scenario's request classes, made on demand: only an explicit
    /// mapping needs them, and an application too large to validate must
    /// not be expanded into classes first.
    pub classes: &'a dyn Fn() -> ClassTable,
    /// Worker threads of the run.
    pub threads: usize,
}

/// One wrong value in a parameter object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamIssue {
    /// Field path inside the object (e.g. `mapping.classes.R1.threads`).
    pub path: String,
    pub message: String,
}

impl ParamIssue {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ParamIssue {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// A family's parameter object: absent fields take the family's defaults,
/// and `check` says what is wrong with the values given (the field set is
/// the struct's own, read by [`fields_of`]).
pub trait Params: Serialize + Default {
    /// Every value out of range, with its path inside the object.
    fn check(&self, env: &ParamEnv<'_>) -> Vec<ParamIssue>;

    /// The cores per shared cache this object tells its family's
    /// heuristics about, which a virtual-core run models as the machine's
    /// cache domains; `None` for a family that assumes no topology (the
    /// default) or an object that leaves it unset.
    fn cores_per_cache(&self) -> Option<u32> {
        None
    }
}

/// `queue_capacity` (or `queue_bound`) within `1..=MAX_QUEUE_CAPACITY`;
/// `what` names the queued items (`requests`, `events`).
pub fn check_capacity(out: &mut Vec<ParamIssue>, field: &str, q: Option<usize>, what: &str) {
    if let Some(q) = q.filter(|q| *q == 0 || *q > MAX_QUEUE_CAPACITY) {
        out.push(ParamIssue::new(
            field,
            format!("expected 1..={MAX_QUEUE_CAPACITY} {what} per queue, got {q}"),
        ));
    }
}

/// A spin policy's sleep stays under [`MAX_PARK_US`].
pub fn check_spin(out: &mut Vec<ParamIssue>, field: &str, sp: Option<SpinPolicy>) {
    if let Some(sp) = sp.filter(|sp| sp.park_us > MAX_PARK_US) {
        out.push(ParamIssue::new(
            format!("{field}.park_us"),
            format!(
                "expected at most {MAX_PARK_US} us between checks, got {}",
                sp.park_us
            ),
        ));
    }
}

/// The fields of the struct `v`, in declaration order, each with whether
/// `v` serializes it (an absent `Option` is skipped by
/// `skip_serializing_if`); the values of struct-valued fields are read one
/// level down. Empty when `v` is not a struct.
pub fn fields_of<T: Serialize>(v: &T) -> Vec<Member> {
    match v.serialize(Shape { depth: 1 }) {
        Ok(ShapeOf::Struct(m)) => m,
        _ => Vec::new(),
    }
}

/// Names of the fields of `T` (all of them: the default leaves every
/// optional field out, and required fields are always serialized).
pub fn field_names<T: Serialize + Default>() -> Vec<&'static str> {
    fields_of(&T::default()).iter().map(|m| m.name).collect()
}

/// One field of a struct, as [`fields_of`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: &'static str,
    /// `None` when the field was skipped; the fields set in its value when
    /// the value is a struct (one level down), else empty.
    pub value: Option<Vec<&'static str>>,
}

impl Member {
    pub fn present(&self) -> bool {
        self.value.is_some()
    }
}

/// The shape of a serialized value: a struct's members, or anything else.
pub enum ShapeOf {
    Other,
    Struct(Vec<Member>),
}

/// A serializer that records only struct shapes, `depth` levels down.
struct Shape {
    depth: u8,
}

/// Why a value has no shape (never shown: [`fields_of`] answers empty).
#[derive(Debug)]
pub struct NoShape;

impl std::fmt::Display for NoShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a struct")
    }
}
impl std::error::Error for NoShape {}
impl ser::Error for NoShape {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NoShape
    }
}

/// Collects a struct's members.
struct Fields {
    depth: u8,
    members: Vec<Member>,
}

impl ser::SerializeStruct for Fields {
    type Ok = ShapeOf;
    type Error = NoShape;
    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), NoShape> {
        let inner = if self.depth == 0 {
            Vec::new()
        } else {
            match value.serialize(Shape {
                depth: self.depth - 1,
            })? {
                ShapeOf::Struct(m) => m.iter().filter(|m| m.present()).map(|m| m.name).collect(),
                ShapeOf::Other => Vec::new(),
            }
        };
        self.members.push(Member {
            name: key,
            value: Some(inner),
        });
        Ok(())
    }
    fn skip_field(&mut self, key: &'static str) -> Result<(), NoShape> {
        self.members.push(Member {
            name: key,
            value: None,
        });
        Ok(())
    }
    fn end(self) -> Result<ShapeOf, NoShape> {
        Ok(ShapeOf::Struct(self.members))
    }
}

macro_rules! other {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(fn $name(self, _: $ty) -> Result<ShapeOf, NoShape> {
            Ok(ShapeOf::Other)
        })*
    };
}

impl ser::Serializer for Shape {
    type Ok = ShapeOf;
    type Error = NoShape;
    type SerializeSeq = Impossible<ShapeOf, NoShape>;
    type SerializeTuple = Impossible<ShapeOf, NoShape>;
    type SerializeTupleStruct = Impossible<ShapeOf, NoShape>;
    type SerializeTupleVariant = Impossible<ShapeOf, NoShape>;
    type SerializeMap = Impossible<ShapeOf, NoShape>;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Impossible<ShapeOf, NoShape>;

    other!(
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_f32: f32,
        serialize_f64: f64,
        serialize_char: char,
        serialize_str: &str,
        serialize_bytes: &[u8],
        serialize_unit_struct: &'static str,
    );
    fn serialize_none(self) -> Result<ShapeOf, NoShape> {
        Ok(ShapeOf::Other)
    }
    fn serialize_some<V: ?Sized + Serialize>(self, v: &V) -> Result<ShapeOf, NoShape> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<ShapeOf, NoShape> {
        Ok(ShapeOf::Other)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<ShapeOf, NoShape> {
        Ok(ShapeOf::Other)
    }
    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &V,
    ) -> Result<ShapeOf, NoShape> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &V,
    ) -> Result<ShapeOf, NoShape> {
        Ok(ShapeOf::Other)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NoShape> {
        Err(NoShape)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NoShape> {
        Err(NoShape)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NoShape> {
        Err(NoShape)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NoShape> {
        Err(NoShape)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NoShape> {
        Err(NoShape)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields, NoShape> {
        Ok(Fields {
            depth: self.depth,
            members: Vec::new(),
        })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NoShape> {
        Err(NoShape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Serialize)]
    struct Inner {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u32>,
    }

    #[derive(Default, Serialize)]
    struct Outer {
        id: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        inner: Option<Inner>,
        #[serde(skip_serializing_if = "Option::is_none")]
        other: Option<Inner>,
    }

    #[test]
    fn fields_are_read_in_order_with_presence_and_one_level_down() {
        assert_eq!(field_names::<Inner>(), ["a", "b"]);
        let o = Outer {
            id: 3,
            inner: Some(Inner {
                a: None,
                b: Some(1),
            }),
            other: None,
        };
        let m = fields_of(&o);
        let names: Vec<_> = m.iter().map(|m| m.name).collect();
        assert_eq!(names, ["id", "inner", "other"]);
        assert_eq!(m[0].value, Some(vec![]));
        assert_eq!(m[1].value, Some(vec!["b"]));
        assert_eq!(m[2].value, None);
        assert!(fields_of(&5u32).is_empty());
    }

    #[test]
    fn shared_checks_name_the_field_and_the_limit() {
        let mut out = Vec::new();
        check_capacity(&mut out, "queue_capacity", Some(0), "requests");
        check_capacity(&mut out, "queue_capacity", Some(8), "requests");
        let sp = SpinPolicy {
            park_us: MAX_PARK_US + 1,
            ..SpinPolicy::default()
        };
        check_spin(&mut out, "spin", Some(sp));
        check_spin(&mut out, "spin", Some(SpinPolicy::default()));
        let paths: Vec<_> = out.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(paths, ["queue_capacity", "spin.park_us"]);
    }
}
